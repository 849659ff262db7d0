// What a console page handler gets (the program, who is signed in, URLs, the CSRF token of its
// forms, a way to record what it changed) and gives back (a page, a redirect or a download).
import type { SignInLinkMaker } from '../core/portal-sign-in.js'
import type { Html } from '../web/html.js'
import type { AdminPaths } from './paths.js'
import type { AdminProgram } from './program.js'
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
  /** The affiliate portal that makes sign-in links (option portal), or null. */
  portal: SignInLinkMaker | null
  /**
   * Records a change in the audit log, through the program: called inside program.transaction(fn)
   * with the change, the entry commits with it or not at all.
   */
  audit(action: string, target: string | null, detail?: string | null): Promise<void>
}

export type AdminResult =
  | { title: string; body: Html; status?: number }
  | { redirect: string }
  | { download: { filename: string; contentType: string; body: string } }
