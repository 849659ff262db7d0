// The REST table (src/http/routes/): every operation defined once, and each shape serving all of
// them with the operation's method, path, scope and errors, in the table's order.
import { describe, expect, it } from 'vitest'
import { alternativeRoutes, OPERATIONS, primaryRoutes } from '../../src/http/index.js'
import { OPERATION_LIST } from '../../src/http/routes/operations.js'

describe('the REST operations table', () => {
  it('defines each operation once, by id and by method and path', () => {
    const ids = OPERATION_LIST.map((operation) => operation.id)
    const keys = OPERATION_LIST.map((operation) => `${operation.method} ${operation.path}`)
    expect(new Set(ids).size).toBe(ids.length)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('is served whole by every shape, each route with the method, path, scope and errors of its operation', () => {
    for (const routes of [primaryRoutes, alternativeRoutes]) {
      expect(routes.map((route) => [route.method, route.path, route.scope, route.errors])).toEqual(
        OPERATION_LIST.map((operation) => [operation.method, operation.path, operation.scope, operation.errors]),
      )
    }
    expect(OPERATIONS).toBe(primaryRoutes)
  })
})
