// What the console needs of the webhook dispatcher (passed as createAdminConsole's `webhooks`):
// sending a retried delivery now, and a test event. Without it, a retry waits for the running
// dispatcher's next pass and the test button is not shown.
import type { WebhookRunner } from '../core/program.js'

export type ConsoleWebhooks = Pick<WebhookRunner, 'dispatch' | 'sendTest'>
