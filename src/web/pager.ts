// Page numbers for long lists: ?page=N read strictly, and the previous / next links.
import { html, type Html } from './html.js'

/** The 1-based page of `?page=`; null when the value is not a whole number from 1 to `max`. */
export function pageNumber(url: URL, max = 100_000): number | null {
  const raw = url.searchParams.get('page')
  if (raw === null || raw === '') return 1
  if (!/^[0-9]{1,7}$/.test(raw)) return null
  const page = Number(raw)
  return page >= 1 && page <= max ? page : null
}

/** `path` may carry a query of its own (a list's filters); the page number is added to it. */
export function pager(path: string, page: number, pageSize: number, total: number, label: string): Html {
  const pages = Math.max(1, Math.ceil(total / pageSize))
  if (pages <= 1) return html``
  const pageUrl = (n: number) => `${path}${path.includes('?') ? '&' : '?'}page=${n}`
  return html`<nav class="pager" aria-label="${label} pages">
${page > 1 ? html`<a href="${pageUrl(page - 1)}" rel="prev">Previous</a>` : null}
<span>Page ${page} of ${pages}</span>
${page < pages ? html`<a href="${pageUrl(page + 1)}" rel="next">Next</a>` : null}
</nav>`
}
