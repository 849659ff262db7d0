// The mail log of a project (docs/email.md "The log"): every mail the outbox's events became, with
// its status, attempts and the SMTP server's replies; a mail retried by hand is due again now.
import { listWindow } from '../ports/conflicts.js'
import type { ProjectContext } from '../rules/context.js'
import { NotFoundError } from '../model/errors.js'
import { MAIL_STATUSES } from '../model/mail-kinds.js'
import { id as idSchema, validate } from '../model/schemas.js'
import type { MailAttempt, MailMessage } from '../model/types.js'
import * as v from 'valibot'

const mailFilter = v.strictObject({
  status: v.optional(v.picklist(MAIL_STATUSES, `must be one of ${MAIL_STATUSES.join(', ')}`)),
  limit: v.optional(v.pipe(v.number('must be an integer'), v.safeInteger('must be an integer'), v.minValue(1, 'must be at least 1'))),
  offset: v.optional(v.pipe(v.number('must be an integer'), v.safeInteger('must be an integer'), v.minValue(0, 'must not be negative'))),
})
export type MailFilterInput = v.InferInput<typeof mailFilter>

export function mailLogService(ctx: ProjectContext) {
  const { storage, projectId } = ctx
  const find = async (mailId: number): Promise<MailMessage> => {
    const mail = await storage.mail.get(projectId, validate(idSchema, mailId, 'mailId'))
    if (!mail) throw new NotFoundError('mail not found', 'mailId')
    return mail
  }
  return {
    /** Mails, newest first, by status. */
    async list(input: MailFilterInput = {}): Promise<{ items: MailMessage[]; total: number; limit: number; offset: number }> {
      const data = validate(mailFilter, input)
      const window = listWindow(data, 50, 200)
      const page = await storage.mail.list(projectId, { ...(data.status ? { status: data.status } : {}), ...window })
      return { ...page, ...window }
    },
    get: find,
    /** Every attempt of one mail, oldest first, with the SMTP reply. */
    async attempts(mailId: number): Promise<MailAttempt[]> {
      await find(mailId)
      return storage.mailAttempts.all(projectId, { mailId })
    },
    /** By hand: the mail is due now, whatever its state (unless being sent), and sent at the dispatcher's next pass. */
    async retry(mailId: number): Promise<void> {
      const now = ctx.clock.now()
      const due = { status: 'queued', nextAttemptAt: now, leaseUntil: null, updatedAt: now } as const
      if (!(await storage.mail.update(projectId, validate(idSchema, mailId, 'mailId'), due, { statusOtherThan: 'sending' }))) {
        throw new NotFoundError('mail not found or being sent right now', 'mailId')
      }
    },
  }
}
