// Every email the program accepts is one mailbox as the mailer reads it (issue 43 item 19): for
// each address the schema accepts, nodemailer's address parser finds exactly that address, with no
// display name, second address or group; `eve,postmaster@example.com` is refused.
import addressparser from 'nodemailer/lib/addressparser/index.js'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { email } from '../../src/core/model/schemas.js'

const accepts = (text: string) => v.safeParse(email, text).success

describe('email addresses as the mailer parses them', () => {
  it('refuses lists, display names, groups, comments and quotes; accepts plain mailboxes', () => {
    for (const text of ['eve,postmaster@example.com', 'eve;postmaster@example.com', 'Eve <eve@example.com>', 'eve postmaster@example.com', 'team:eve@example.com;', 'eve(x)@example.com', '"eve"@example.com', 'a..b@example.com', '.a@example.com', 'a@b@example.com', 'a@example', 'a@-x.com']) {
      expect(accepts(text), text).toBe(false)
    }
    for (const text of ["o'brien@example.com", 'ann+tag@example.co.uk', 'Müller@bücher.de', 'a!#$%&*/=?^_`{|}~-@example.com', 'x@sub.example-1.com']) {
      expect(accepts(text), text).toBe(true)
    }
  })

  it('200,000 random strings: each one accepted is exactly one address to nodemailer', () => {
    const pool = ['a', 'b', 'Z', '0', '.', '@', '@', 'x.com', ',', ';', ':', '<', '>', '(', ')', '"', ' ', '\u00a0', '\u2028', '\uff0c', 'ü', 'é', '\\', '[', ']', '=?', '?=', '+', "'", '-', '\t', '\u200b', '\ufeff']
    let seed = 43
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    let accepted = 0
    for (let i = 0; i < 200_000; i += 1) {
      let text = ''
      for (let k = 1 + Math.floor(random() * 8); k > 0; k -= 1) text += pool[Math.floor(random() * pool.length)]
      if (random() < 0.5) text += '@x.com'
      const result = v.safeParse(email, text)
      if (!result.success) continue
      accepted += 1
      expect(addressparser(result.output), text).toEqual([{ address: result.output, name: '' }])
    }
    expect(accepted).toBeGreaterThan(1000)
  })
})
