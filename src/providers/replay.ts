// Replaying a recorded provider event, for the CLI, the console and the REST API: the program's
// providerEvents.replay (an operator applies again, from the event log, an event that waits or
// was ignored), for the program's own project or another one named per call. It needs the
// program, not the provider's secret.
import type { AffiliateProgram } from '../core/program.js'
import type { ReplayedEvent } from '../core/provider-events/index.js'

export type { ReplayedEvent } from '../core/provider-events/index.js'

export interface ProviderEventReplayOptions {
  /** The program whose project received the events. */
  program: AffiliateProgram
  /** No longer used: the program replays from its own storage. Accepted so that existing calls keep compiling. */
  storage?: unknown
  /** Id of the project the events belong to. @default the program's own project */
  project?: string
}

export interface ProviderEventReplay {
  /**
   * Applies the recorded event (its id in the event log) again. Not found: NotFoundError. Being
   * applied by another request, or recorded without the payload to replay (an event of a type
   * affiliate-kit does not use, or one an earlier version ignored): ConflictError. `project`:
   * another project of the program than the one given in the options.
   */
  replay(id: number, project?: string): Promise<ReplayedEvent>
}

export function providerEventReplay(options: ProviderEventReplayOptions): ProviderEventReplay {
  const { program } = options
  return {
    replay: (id, project = options.project) => (project === undefined ? program : program.project(project)).providerEvents.replay(id),
  }
}
