// What the console needs of the webhook dispatcher (passed as createAdminConsole's `webhooks`):
// sending a retried delivery now, and a test event. Without it, a retry waits for the running
// dispatcher's next pass and the test button is not shown.
import type { WebhookDispatcher } from '../webhooks/dispatcher.js'

export type ConsoleWebhooks = Pick<WebhookDispatcher, 'dispatch' | 'sendTest'>
