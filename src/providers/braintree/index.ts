// affiliate-kit/braintree: a Fetch handler for Braintree webhooks. Braintree posts a form with
// bt_signature and bt_payload (base64 XML); the braintree package's
// gateway.webhookNotification.parse verifies the signature with the API keys and reads the
// notification (docs/providers.md "Braintree"). The notification has no timestamp check and no
// event id: an id is made from its kind and subject (./map.ts), so a re-delivery is a duplicate.
import { providerHandler, type ProviderHandler, type ProviderHandlerOptions } from '../handler.js'
import { MalformedEvent } from '../mapping.js'
import { isInvalidSignature, notificationParser, type BraintreeKeys } from './gateway.js'
import { BRAINTREE_EVENTS, mapBraintreeNotification } from './map.js'

export interface BraintreeHandlerOptions extends ProviderHandlerOptions, BraintreeKeys {}

export function braintreeHandler(options: BraintreeHandlerOptions): ProviderHandler {
  const { merchantId, publicKey, privateKey } = options
  if (!merchantId || !publicKey || !privateKey) throw new Error('affiliate-kit: the Braintree handler needs merchantId, publicKey and privateKey')
  let parser: ReturnType<typeof notificationParser> | undefined
  return providerHandler(
    {
      name: 'braintree',
      decode: async (raw) => {
        const form = new URLSearchParams(raw)
        const signature = form.get('bt_signature')
        const payload = form.get('bt_payload')
        if (!signature || !payload) return { refused: 'missing bt_signature or bt_payload' }
        parser ??= notificationParser({ merchantId, publicKey, privateKey })
        try {
          return { body: await (await parser).parse(signature, payload) }
        } catch (error) {
          if (isInvalidSignature(error)) return { refused: (error as Error).message }
          if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') throw error
          // Signed, yet not XML the package reads.
          throw new MalformedEvent(`unreadable notification: ${(error as Error).message}`)
        }
      },
      map: (body) => mapBraintreeNotification(body),
    },
    options,
  )
}

export { BRAINTREE_EVENTS, mapBraintreeNotification }
export type { BraintreeKeys }
export type { FetchHandler, ProviderHandler, ProviderHandlerOptions } from '../handler.js'
export { providerEventReplay } from '../replay.js'
export type { ProviderEventReplay, ProviderEventReplayOptions, ReplayedEvent } from '../replay.js'
