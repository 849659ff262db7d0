// The ledger movements repository: an affiliate's ledger changes as recorded (docs/payouts.md).
import { ledgerRules } from '../../../core/ports/entity-filters.js'
import type { Insert, LedgerRepository } from '../../../core/ports/storage.js'
import type { LedgerMovement } from '../../../core/model/types.js'
import type { CounterWrite } from '../counter-write.js'
import { run } from '../codec.js'
import { sqlEntityTable } from '../entity-table.js'
import type { SqlClient } from '../executor.js'
import type { Tables } from '../tables.js'

/**
 * The ledger movement of a conversion inserted by the same statement (its CTE `inserted`), as a
 * write beside it: written only when a row was inserted, with that row's id.
 */
export function conversionMovementInsert(t: Tables, movement: Insert<LedgerMovement>, params: unknown[]): CounterWrite {
  const first = params.length + 1
  return { shape: `movement $${first}`, text: t.ledger.insertSelect(movement, params, { conversionId: 'inserted.id' }, 'inserted') }
}

export function ledgerRepository(db: SqlClient, t: Tables): LedgerRepository {
  const table = t.ledger
  return {
    ...sqlEntityTable(db, table, ledgerRules),
    async releasing(projectId, { after, upTo }) {
      const rows = await run(
        db,
        `SELECT * FROM ${table.name}
         WHERE project_id = $1 AND hold_until > $2 AND hold_until <= $3 AND created_at < hold_until
         ORDER BY hold_until, id`,
        [projectId, after, upTo],
      )
      return rows.map((row) => table.read(row))
    },
  }
}
