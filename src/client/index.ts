// affiliate-kit/client: the typed REST client.
export { ApiError, createClient } from './client.js'
export type { Client, ClientOptions, RequestOptions } from './client.js'
export type * from './types.js'
