// What the console needs to replay a provider event (passed as createAdminConsole's
// `providerEvents`: providerEventReplay({ program, storage }) from any provider entry). Without
// it, the provider events page shows no replay button.

export interface ConsoleProviderEvents {
  /** Applies the recorded event again; `message` says what happened. Throws the core's errors (404, 409). */
  replay(id: number): Promise<{ replayed: boolean; message: string; event: { status: string } }>
}
