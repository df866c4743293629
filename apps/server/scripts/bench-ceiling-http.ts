/**
 * HTTP ceiling for `npm run bench`: a bare Fastify JSON route (no auth, no database, no logging),
 * run in its own process on PORT. GET /ping -> {"ok":true}.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/ping', async () => ({ ok: true, at: Date.now() }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
