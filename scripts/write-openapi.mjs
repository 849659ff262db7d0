// After the build: ships the OpenAPI document as dist/openapi.json (affiliate-kit/openapi.json).
import { writeFileSync } from 'node:fs'
import { openApiDocument } from '../dist/http/index.js'

writeFileSync(new URL('../dist/openapi.json', import.meta.url), `${JSON.stringify(openApiDocument(), null, 2)}\n`)
