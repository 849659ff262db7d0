// Reading whole lists page by page through the program's list calls (which cap a page at 100),
// for the console's search, review queue and payouts table. Bounded, so a huge program cannot
// make one page read without end.
import type { ConversionView, AffiliateView } from '../core/rules/views.js'
import type { AffiliateStatus } from '../core/model/types.js'
import type { ListConversionsInput } from '../core/model/schemas.js'
import type { AdminProgram } from './program.js'

const PAGE = 100
/** At most this many records are read for one console page. */
export const SCAN_LIMIT = 10_000

export async function allAffiliates(program: AdminProgram, status: AffiliateStatus | null = null): Promise<AffiliateView[]> {
  const items: AffiliateView[] = []
  for (let offset = 0; offset < SCAN_LIMIT; offset += PAGE) {
    const page = await program.affiliates.list({ limit: PAGE, offset, ...(status ? { status } : {}) })
    items.push(...page.items)
    if (offset + PAGE >= page.total) break
  }
  return items
}

export async function allConversions(program: AdminProgram, filter: Omit<ListConversionsInput, 'limit' | 'offset'> = {}): Promise<ConversionView[]> {
  const items: ConversionView[] = []
  for (let offset = 0; offset < SCAN_LIMIT; offset += PAGE) {
    const page = await program.conversions.list({ limit: PAGE, offset, ...filter })
    items.push(...page.items)
    if (offset + PAGE >= page.total) break
  }
  return items
}
