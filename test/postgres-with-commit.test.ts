// withCommit writes a transaction's last statement with its values as literals, sent with COMMIT
// in one round trip: the values must reach PostgreSQL exactly, and anything not plainly safe must
// be refused (the caller then sends parameters).
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withCommit } from '../src/adapters/postgres/with-commit.js'
import { DATABASE_URL, NO_DATABASE_REASON } from './sql/pg-schema.js'

const HOSTILE = ["it's", "''", "'; DROP TABLE x; --", "');COMMIT;SELECT ('", '"quoted"', '$1 $$ $tag$ $2::text', 'é ü 中文 🙂 \u2028', 'line\nbreak\ttab', '', "'"]

describe('withCommit: which values it writes as literals', () => {
  it('refuses strings with a backslash or NUL, unsafe numbers, other types and stray dollars', () => {
    const statement = 'SELECT $1::text'
    expect(withCommit(statement, ['a\\b'])).toBeNull()
    expect(withCommit(statement, ['a\0b'])).toBeNull()
    expect(withCommit(statement, [[`ok`, 'no\\']])).toBeNull()
    expect(withCommit('SELECT $1::numeric', [0.5])).toBeNull()
    expect(withCommit('SELECT $1::bigint', [2 ** 60])).toBeNull()
    expect(withCommit('SELECT $1::jsonb', [{ a: 1 }])).toBeNull()
    expect(withCommit('SELECT $1::text', [new Date(Number.NaN)])).toBeNull()
    expect(withCommit('SELECT $1', ['a'])).toBeNull()
    expect(withCommit('SELECT $1::text, $$x$$', ['a'])).toBeNull()
    expect(withCommit('SELECT $2::text', ['a'])).toBeNull()
    expect(withCommit(statement, ["it's"])).toBe("SELECT 'it''s'::text;\nCOMMIT")
  })
})

const suite = DATABASE_URL ? describe : describe.skip
suite(`withCommit on PostgreSQL${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  let client: pg.Client
  beforeAll(async () => {
    client = new pg.Client({ connectionString: DATABASE_URL })
    await client.connect()
  })
  afterAll(() => client?.end())

  it('hostile strings, numbers, dates and arrays arrive exactly as given, then the transaction commits', async () => {
    const at = new Date('2026-11-23T21:40:05.123Z')
    const text = withCommit('SELECT $1::text[] AS strings, $2::bigint[] AS ids, $3::timestamptz AS at, $4::text AS nothing, $5::bigint[] AS none, $6::text AS one', [
      HOSTILE,
      [1, 9007199254740991n],
      at,
      null,
      [],
      HOSTILE[3],
    ])
    expect(text).not.toBeNull()
    await client.query('BEGIN')
    const results = (await client.query(text!)) as unknown as pg.QueryResult[]
    expect(results.map((result) => result.command)).toEqual(['SELECT', 'COMMIT'])
    expect(results[0]!.rows).toEqual([{ strings: HOSTILE, ids: ['1', '9007199254740991'], at, nothing: null, none: [], one: HOSTILE[3] }])
    const status = await client.query<{ open: boolean }>('SELECT now() <> statement_timestamp() AS open')
    expect(status.rows[0]!.open).toBe(false)
  })

  it('a failing statement stops the COMMIT after it', async () => {
    await client.query('BEGIN')
    await client.query('CREATE TEMP TABLE with_commit_pgc (v text)')
    const text = withCommit('INSERT INTO with_commit_pgc SELECT $1::text; SELECT 1 / $2::int', ["'x'", 0])
    await expect(client.query(text!)).rejects.toThrow(/division by zero/)
    await client.query('ROLLBACK')
    await expect(client.query('SELECT * FROM with_commit_pgc')).rejects.toThrow(/does not exist/)
  })
})
