import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { tiersAdminRoutes } from './modules/tiers-admin/tiers-admin.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { userRoutes } from './modules/users/users.routes.ts';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.ts';
import { tierRoutes } from './modules/tiers/tiers.routes.ts';
import { investmentRoutes } from './modules/investments/investments.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { referralRoutes } from './modules/referrals/referrals.routes.ts';
import { withdrawalRoutes } from './modules/withdrawals/withdrawals.routes.ts';
import { depositRoutes } from './modules/deposits/deposits.routes.ts';
import { solvencyRoutes } from './modules/solvency/solvency.routes.ts';
import { statementRoutes } from './modules/statements/statements.routes.ts';
import { sessionRoutes } from './modules/sessions/sessions.routes.ts';
import { securityEventRoutes } from './modules/security-events/security-events.routes.ts';
import { withdrawalAddressRoutes } from './modules/withdrawal-addresses/withdrawal-addresses.routes.ts';
import { accountLinkRoutes } from './modules/account-links/account-links.routes.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { withdrawalLimitRoutes } from './modules/withdrawal-limits/withdrawal-limits.routes.ts';
import { porRoutes } from './modules/proof-of-reserves/por.routes.ts';
import { passkeyRoutes } from './modules/passkeys/passkeys.routes.ts';
import { proposalRoutes } from './modules/proposals/proposals.routes.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';

/** Every API module, mounted under /api. Each module owns its routes, service and queries. */
export function apiRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(authRoutes(ctx));
    await app.register(userRoutes(ctx));
    await app.register(twoFactorRoutes(ctx));
    await app.register(adminRoutes(ctx));
    await app.register(tiersAdminRoutes(ctx));
    await app.register(tierRoutes(ctx));
    await app.register(investmentRoutes(ctx));
    await app.register(dashboardRoutes(ctx));
    await app.register(referralRoutes(ctx));
    await app.register(withdrawalRoutes(ctx));
    await app.register(depositRoutes(ctx));
    await app.register(solvencyRoutes(ctx));
    await app.register(statementRoutes(ctx));
    await app.register(sessionRoutes(ctx));
    await app.register(securityEventRoutes(ctx));
    await app.register(withdrawalAddressRoutes(ctx));
    await app.register(accountLinkRoutes(ctx));
    await app.register(historyRoutes(ctx));
    await app.register(withdrawalLimitRoutes(ctx));
    await app.register(porRoutes(ctx));
    await app.register(passkeyRoutes(ctx));
    await app.register(proposalRoutes(ctx));
    await app.register(staffRoutes(ctx));
  };
}
