// /referrals (referred users): list, create, retrieve and update by email, once for every shape.
import type { ProjectScope } from '../../core/program.js'
import { defineOperation, type Given } from '../route.js'

type Referrals = ProjectScope['referrals']

export const listReferrals = defineOperation({
  id: 'getReferrals',
  method: 'GET',
  path: '/referrals',
  scope: 'referrals:read',
  summary: 'List referred users',
  errors: [400],
  run: ({ api, input }: Given<Parameters<Referrals['list']>[0]>) => api.referrals.list(input),
})

export const createReferral = defineOperation({
  id: 'postReferrals',
  method: 'POST',
  path: '/referrals',
  scope: 'referrals:write',
  summary: 'Create a referred user',
  errors: [400, 404, 409],
  status: 201,
  run: ({ api, input }: Given<Parameters<Referrals['create']>[0]>) => api.referrals.create(input),
})

export const getReferral = defineOperation({
  id: 'getReferralsEmail',
  method: 'GET',
  path: '/referrals/:email',
  scope: 'referrals:read',
  summary: 'Retrieve a referred user',
  errors: [400, 404],
  run: ({ api, params }) => api.referrals.get(params.email ?? ''),
})

export const updateReferral = defineOperation({
  id: 'putReferralsEmail',
  method: 'PUT',
  path: '/referrals/:email',
  scope: 'referrals:write',
  summary: 'Update a referred user',
  errors: [400, 404, 409],
  run: ({ api, params, input }: Given<Parameters<Referrals['update']>[1]>) => api.referrals.update(params.email ?? '', input),
})
