// Bun: `PORT=8787 bun examples/bun/server.ts`. Bun.serve takes the fetch handler directly.
import { createHandler } from 'affiliate-kit/http'
import { exampleProgram } from '../shared.js'

// Declared here so the repository type-checks without Bun's types installed.
declare const Bun: { serve(options: { port: number; hostname?: string; fetch: (request: Request) => Promise<Response> }): { port: number } }

const { program, key } = await exampleProgram()
const server = Bun.serve({ port: Number(process.env.PORT ?? 8787), hostname: '127.0.0.1', fetch: createHandler(program) })
console.log(`listening on http://127.0.0.1:${server.port}/api/v1\nAPI key: ${key}`)
