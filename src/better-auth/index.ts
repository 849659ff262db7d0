// affiliate-kit/better-auth: the Better Auth plugin (docs/embed.md "Better Auth"), better-auth a peer dependency.
//   betterAuth({ ..., plugins: [affiliateKit(program, { embedUrl: portal.embedUrl })] })
export { affiliateKit, type AffiliateKitBetterAuthPlugin, type AffiliateKitPluginOptions, type BetterAuthProgram, type EmbedTokenAnswer, type SignUpContext } from './plugin.js'
