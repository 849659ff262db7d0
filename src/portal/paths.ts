// The portal's URLs under its mount path, in one place (pages link with these, the router matches them).

export interface PortalPaths {
  base: string
  overview: string
  conversions: string
  conversion(id: number): string
  payouts: string
  settings: string
  signIn: string
  signInEmail: string
  signOut: string
  stylesheet: string
  script: string
}

/** `base` is '/portal' or '' (mounted at the root); `versions` are the assets' content hashes. */
export function portalPaths(base: string, versions: { stylesheet: string; script: string }): PortalPaths {
  return {
    base,
    overview: `${base}/`,
    conversions: `${base}/conversions`,
    conversion: (id) => `${base}/conversions/${id}`,
    payouts: `${base}/payouts`,
    settings: `${base}/settings`,
    signIn: `${base}/sign-in`,
    signInEmail: `${base}/sign-in/email`,
    signOut: `${base}/sign-out`,
    stylesheet: `${base}/assets/portal.css?v=${versions.stylesheet}`,
    script: `${base}/assets/portal.js?v=${versions.script}`,
  }
}
