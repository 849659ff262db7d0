// API keys: create a secret key or a publishable one for the browser snippet (the full key shown
// once, on the answer to the form), list, revoke; through program.keys, as the CLI does.
import { ValidationError } from '../../core/model/errors.js'
import { SCOPES, type Scope } from '../../core/model/types.js'
import { html } from '../../web/html.js'
import { day } from '../../web/format.js'
import type { AdminRequest, AdminResult } from '../page.js'

const ALL_SCOPES: Scope[] = ['*', ...SCOPES]

export async function keysPage({ program, url, paths, csrf }: AdminRequest): Promise<AdminResult> {
  const keys = await program.keys.list()
  const body = html`<h1>API keys</h1>
${url.searchParams.has('revoked') ? html`<p class="notice" role="status">The key is revoked; the API refuses it from now on.</p>` : null}
<section class="card" aria-labelledby="keys-title">
<h2 id="keys-title">Keys</h2>
${
  keys.length === 0
    ? html`<p class="muted">No keys.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th scope="col">Key</th><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
<tbody>${keys.map(
        (key) => html`<tr data-key="${key.id}"><td><code>${key.prefix}…</code></td><td>${key.name ?? ''}</td><td>${key.prefix.startsWith('rgp_') ? 'publishable (browser snippet)' : key.scopes.join(' ')}</td><td>${day(key.createdAt)}</td><td>${key.revokedAt ? html`Revoked ${day(key.revokedAt)}` : 'Active'}</td><td>${
          key.revokedAt
            ? null
            : html`<form class="inline" method="post" action="${paths.keyRevoke(key.id)}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="Revoke key ${key.prefix}">Revoke</button></form>`
        }</td></tr>`,
      )}</tbody>
</table></div>`
}
</section>
<section class="card" aria-labelledby="create-title">
<h2 id="create-title">Create a key</h2>
<form method="post" action="${paths.keys}">
<input type="hidden" name="csrf" value="${csrf}">
<label for="key-name">Name</label>
<input id="key-name" name="name" maxlength="100">
<fieldset><legend>Scopes</legend>${ALL_SCOPES.map(
    (scope, index) => html`<div><input type="checkbox" id="scope-${index}" name="scope" value="${scope}"><label class="inline" for="scope-${index}">${scope === '*' ? '* (every scope, and the admin console)' : scope}</label></div>`,
  )}</fieldset>
<div class="actions"><button type="submit">Create key</button></div>
</form>
</section>
<section class="card" aria-labelledby="publishable-title">
<h2 id="publishable-title">Create a publishable key</h2>
<p>For the browser snippet on your site (<code>data-key</code>): safe to ship in a page, it can only report clicks and signups to the tracking links, never call the API.</p>
<form method="post" action="${paths.keysPublishable}">
<input type="hidden" name="csrf" value="${csrf}">
<label for="publishable-name">Label (the site it is for)</label>
<input id="publishable-name" name="name" maxlength="100">
<div class="actions"><button type="submit">Create publishable key</button></div>
</form>
</section>`
  return { title: 'API keys', body }
}

export async function createKey({ paths, changes }: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const scopes = form.getAll('scope')
  const unknown = scopes.find((scope) => !ALL_SCOPES.includes(scope as Scope))
  if (unknown !== undefined) throw new ValidationError('scopes', 'a chosen scope is not known')
  if (scopes.length === 0) throw new ValidationError('scopes', 'choose at least one scope')
  const name = (form.get('name') ?? '').trim()
  const { key } = await changes(async ({ program, audit }) => {
    const created = await program.keys.create({ name: name === '' ? null : name, scopes: scopes as Scope[] })
    await audit('api_key.create', `api_key:${created.record.id}`, `${created.record.name ?? 'unnamed'}: ${created.record.scopes.join(' ')}`)
    return created
  })
  const body = html`<h1>New API key</h1>
<section class="card">
<p>This is the only time the full key is shown: copy it now.</p>
<div class="copy"><label class="skip" for="new-key">New API key</label><input id="new-key" type="text" readonly value="${key}" data-new-key><button type="button" data-copy="new-key" hidden>Copy key</button><span id="new-key-status" class="muted" role="status" aria-live="polite"></span></div>
<p><a href="${paths.keys}">Back to API keys</a></p></section>`
  return { title: 'New API key', body }
}

export async function createPublishableKey({ paths, changes }: AdminRequest, form: URLSearchParams): Promise<AdminResult> {
  const name = (form.get('name') ?? '').trim()
  const { key } = await changes(async ({ program, audit }) => {
    const created = await program.keys.createPublishable(name === '' ? {} : { name })
    await audit('api_key.create', `api_key:${created.record.id}`, `${created.record.name ?? 'unnamed'}: publishable`)
    return created
  })
  const body = html`<h1>New publishable key</h1>
<section class="card">
<p>Put it in the snippet's tag on your site (<code>data-key</code>). It is shown only this once: copy it now.</p>
<div class="copy"><label class="skip" for="new-key">New publishable key</label><input id="new-key" type="text" readonly value="${key}" data-new-key><button type="button" data-copy="new-key" hidden>Copy key</button><span id="new-key-status" class="muted" role="status" aria-live="polite"></span></div>
<p><a href="${paths.keys}">Back to API keys</a></p></section>`
  return { title: 'New publishable key', body }
}

export async function revokeKey({ paths, changes }: AdminRequest, id: number): Promise<AdminResult> {
  await changes(async ({ program, audit }) => {
    await program.keys.revoke(id)
    await audit('api_key.revoke', `api_key:${id}`)
  })
  return { redirect: `${paths.keys}?revoked=1` }
}
