// What a console page handler gets (the program, who is signed in, URLs, the CSRF token of its
// forms, a way to record what it changed) and gives back (a page, a redirect or a download).
import type { SignInLinkMaker } from '../core/affiliates/portal-sign-in.js'
import type { Html } from '../web/html.js'
import type { AdminPaths } from './paths.js'
import type { AdminProgram } from './program.js'
import type { ConsolePayoutRuns } from './payout-runs.js'
import type { ConsoleProviderEvents } from './provider-events.js'
import type { ConsoleWebhooks } from './webhooks.js'

/** Who is using the console: an API key's session, or the identity the host's authorize hook gave. */
export interface AdminActor {
  id: string
  name: string
}

export interface AdminRequest {
  request: Request
  url: URL
  program: AdminProgram
  actor: AdminActor
  paths: AdminPaths
  /** The CSRF token every form of the page carries. */
  csrf: string
  webhooks: ConsoleWebhooks | null
  providerEvents: ConsoleProviderEvents | null
  /** Payout runs through the configured providers (option payoutRuns), or null. */
  payoutRuns: ConsolePayoutRuns | null
  /** The affiliate portal that makes sign-in links (option portal), or null. */
  portal: SignInLinkMaker | null
  /** The labels of the application page's own fields, by name (option applicationFields). */
  fieldLabels: ReadonlyMap<string, string>
  /**
   * Records what was done in the audit log, through this request's program: on the request
   * changes(fn) hands fn, the entry commits with the change or not at all.
   */
  audit(action: string, target: string | null, detail?: string | null): Promise<void>
  /**
   * Runs fn in one transaction (program.transaction) with this request as seen inside it: its
   * program is the transaction's scope and its audit writes there, so the action's reads, its
   * change and its entry commit together or, when fn throws, not at all. Inside fn use only the
   * request it is given (the outer program would wait for the transaction to end).
   * @example await changes(async ({ program, audit }) => { await program.keys.revoke(id); await audit('api_key.revoke', `api_key:${id}`) })
   */
  changes<T>(fn: (request: AdminRequest) => Promise<T>): Promise<T>
}

export type AdminResult =
  | { title: string; body: Html; status?: number }
  | { redirect: string }
  | { download: { filename: string; contentType: string; body: string } }
