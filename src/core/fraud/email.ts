// Emails as the fraud rules compare them: the mailbox without case or a +tag
// (ann+shop@example.com is ann@example.com), and the domain.
import mailchecker from 'mailchecker'

/** ann+shop@Example.com -> ann@example.com */
export function mailbox(email: string): string {
  const lower = email.trim().toLowerCase()
  const at = lower.lastIndexOf('@')
  if (at === -1) return lower
  const plus = lower.indexOf('+')
  const local = plus !== -1 && plus < at ? lower.slice(0, plus) : lower.slice(0, at)
  return `${local}${lower.slice(at)}`
}

export function domainOf(email: string): string {
  const lower = email.trim().toLowerCase()
  return lower.slice(lower.lastIndexOf('@') + 1)
}

const disposable = mailchecker.blacklist()

/** Whether the domain, or a domain it is under, is on mailchecker's maintained list of disposable-mail domains. */
export function isDisposableDomain(domain: string): boolean {
  for (let rest = domain; rest !== ''; rest = rest.includes('.') ? rest.slice(rest.indexOf('.') + 1) : '') {
    if (disposable.has(rest)) return true
  }
  return false
}
