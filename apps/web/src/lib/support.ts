/** The support address the server writes into the page (SUPPORT_EMAIL). */
export function supportEmail(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="hf-support-email"]')?.content || 'support@harvest.farm';
}
