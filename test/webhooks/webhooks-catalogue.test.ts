// The catalogue in docs/webhooks.md against what the dispatcher sends: a sample for every event
// type, with the members the event's builder writes, no more and no fewer. (The pack test holds
// the same samples to the published types, test/process/pack.test.ts.)
import { describe, expect, it } from 'vitest'
import { EVENT_TYPES } from '../../src/index.js'
import { sampleEvent } from '../../src/webhooks/samples.js'
import { documentedSamples } from '../support/webhooks/catalogue.js'

/** Members present only with a value (payout preferences, the sign-in page's locale) and free-form ones (application fields) aside. */
const OPTIONAL = /^(affiliate\.payout_preferences|sign_in\.locale|application\.fields\.)/

/** The dotted paths of every member, objects opened, arrays not. */
function paths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return []
  return Object.entries(value).flatMap(([key, member]) => [`${prefix}${key}`, ...paths(member, `${prefix}${key}.`)])
}
const members = (value: unknown) => paths(value).filter((path) => !OPTIONAL.test(path))

describe('the webhook catalogue (docs/webhooks.md)', () => {
  const documented = documentedSamples()

  it('has one sample per event type, and none for a type that does not exist', () => {
    expect([...documented.keys()].sort()).toEqual([...EVENT_TYPES].sort())
  })

  for (const type of EVENT_TYPES) {
    it(`${type}: the sample has the members the dispatcher sends, in its order`, () => {
      const sent = JSON.parse(JSON.stringify(sampleEvent('proj_sample', type, new Date('2026-03-01T12:00:00Z'), 'USD').payload)) as unknown
      expect(members(JSON.parse(documented.get(type)!))).toEqual(members(sent))
    })
  }
})
