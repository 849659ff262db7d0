const dist = process.env.DIST ?? './dist'
const { createAffiliateProgram, EVENT_TYPES } = await import(`${dist}/index.js`)
const { memoryStorage } = await import(`${dist}/adapters/memory.js`)
async function run(endpoints, count = 20000) {
  const storage = memoryStorage()
  const program = await createAffiliateProgram({ storage })
  for (let i = 0; i < endpoints; i++) await program.webhooks.create({ url: `https://hooks${i}.example.com/in`, events: [...EVENT_TYPES], secret: 's' })
  const affiliate = await program.affiliates.create({ email: 'c@example.com' })
  const s = performance.now()
  for (let i = 0; i < count; i++) await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: 19.99, reference: `ch_${i}` })
  const r = count / ((performance.now() - s) / 1000)
  await storage.close()
  return r
}
const med = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]
const none = [], three = []
for (let r = 0; r < 7; r++) { globalThis.gc(); none.push(await run(0)); globalThis.gc(); three.push(await run(3)) }
console.log(dist, 'none', Math.round(med(none)), 'three', Math.round(med(three)), 'ratio', (med(three) / med(none)).toFixed(3), 'per-round', three.map((t, i) => (t / none[i]).toFixed(2)).join(' '))
