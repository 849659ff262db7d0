// A receiver that hangs past 5 s: each attempt is aborted at 5 s (real time), 4 attempts on the
// schedule (test clock), then `failed`; a manual retry succeeds once it answers. Takes ~20 s.
import { afterEach, expect, it } from 'vitest'
import { runSchedule, signUp, startReceiver, webhookProgram, type Receiver } from '../support/webhooks-helpers.js'

let hook: Receiver | undefined
afterEach(async () => {
  await hook?.close()
})

it('aborts a hanging receiver at 5 s, four times, then fails; a manual retry then succeeds', { timeout: 60_000 }, async () => {
  const { program, clock, dispatcher } = await webhookProgram()
  hook = await startReceiver(() => {
    // Never answers.
  })
  await program.webhooks.create({ url: hook.url, events: ['referral_signed_up'] })
  await signUp(program)
  const [delivery] = (await program.webhooks.deliveries()).items
  const times = await runSchedule(program, dispatcher, clock, delivery!.id)
  expect(times).toHaveLength(4)
  const attempts = await program.webhooks.attempts(delivery!.id)
  expect(attempts).toHaveLength(4)
  for (const attempt of attempts) {
    expect(attempt).toMatchObject({ statusCode: null, error: 'timed out after 5000 ms' })
    expect(attempt.durationMs).toBeGreaterThanOrEqual(4900)
  }
  expect((await program.webhooks.deliveries()).items[0]).toMatchObject({ status: 'failed', attempts: 4 })

  hook.reply((_request, response) => response.writeHead(200).end('ok'))
  await program.webhooks.retry(delivery!.id)
  await dispatcher.dispatch()
  expect((await program.webhooks.deliveries()).items[0]).toMatchObject({ status: 'succeeded', attempts: 5, lastStatusCode: 200 })
  expect(hook.requests).toHaveLength(5)
})
