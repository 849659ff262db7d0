// The braintree package, an optional peer dependency loaded on first use (like pg for
// affiliate-kit/postgres): affiliate-kit/braintree loads without it, and says in one line what to
// install when it is missing. Only its webhook parser is used; its published types stay out of
// affiliate-kit's (a project without @types/braintree type-checks affiliate-kit/braintree).

/** Braintree's API keys: the public key names the signature, the private key makes it. */
export interface BraintreeKeys {
  merchantId: string
  publicKey: string
  privateKey: string
}

/** The part of braintree's WebhookNotificationGateway the handler uses. */
export interface NotificationParser {
  parse(signature: string, payload: string): Promise<unknown>
}

export const BRAINTREE_MISSING = 'affiliate-kit/braintree needs the braintree package beside affiliate-kit: run "npm i braintree"'

/** The braintree package, or an error saying in one line to install it. */
export async function requireBraintree(): Promise<typeof import('braintree')> {
  try {
    return (await import('braintree')).default
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw Object.assign(new Error(BRAINTREE_MISSING, { cause: error }), { code: 'ERR_MODULE_NOT_FOUND' })
    throw error
  }
}

/** The webhook parser of a gateway on these keys (its environment plays no part in parsing). */
export async function notificationParser(keys: BraintreeKeys): Promise<NotificationParser> {
  const braintree = await requireBraintree()
  const gateway = new braintree.BraintreeGateway({ environment: braintree.Environment.Sandbox, merchantId: keys.merchantId, publicKey: keys.publicKey, privateKey: keys.privateKey })
  return { parse: (signature, payload) => gateway.webhookNotification.parse(signature, payload) }
}

/** The kind of error braintree throws for a signature that does not hold (exceptions.InvalidSignatureError). */
export const isInvalidSignature = (error: unknown) => (error as { type?: unknown } | null)?.type === 'invalidSignatureError'
