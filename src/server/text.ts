// Which request text any storage can keep: well-formed Unicode (no lone surrogates) without NUL
// characters (PostgreSQL text cannot hold U+0000). Bodies, path parameters and query values use it.

export function storableText(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed() && !text.includes('\u0000')
}
