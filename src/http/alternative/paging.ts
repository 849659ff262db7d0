// Paths and paging particular to the alternative shape (docs/api.md "The alternative shape").

/** An affiliate path segment: an email, `aff_12` or `12`. */
export function affiliateRef(value: string | undefined): number | string {
  const segment = value ?? ''
  return /^(aff_)?[1-9]\d{0,14}$/.test(segment) ? Number(segment.replace(/^aff_/, '')) : segment
}

/** Limit default and maximum of the alternative shape's lists: 20, at most 100. */
export function alternativeWindow(query: { limit?: number | undefined; offset?: number | undefined }) {
  return { limit: Math.min(query.limit ?? 20, 100), offset: query.offset ?? 0 }
}
