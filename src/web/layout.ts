// The page frame shared by the portal and the admin console: head with the themed stylesheet and
// the enhancement script (deferred files), a header with logo, navigation and sign-out, and main.
import { html, type Html } from './html.js'
import type { ResolvedTheme } from './theme.js'

export interface NavItem {
  href: string
  label: string
  current: boolean
}

export interface FrameOptions {
  theme: ResolvedTheme
  /** The page's own title (the theme's title is appended). */
  title: string
  /** URLs of the stylesheet and the script. */
  stylesheetUrl: string
  scriptUrl: string
  /** Signed-in pages: navigation and a sign-out form (a POST with its CSRF token). */
  signedIn?: { nav: NavItem[]; who: string; signOutUrl?: string; csrfToken: string }
  /** Lets the page use a wider column (the admin console's tables). @default false */
  wide?: boolean
  /** The page's language. @default 'en' */
  lang?: string
  body: Html
}

export function frame({ theme, title, stylesheetUrl, scriptUrl, signedIn, wide = false, lang = 'en', body }: FrameOptions): Html {
  const brand = html`<span class="brand">${theme.logoUrl ? html`<img src="${theme.logoUrl}" alt="">` : null}<span>${theme.title}</span></span>`
  return html`<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · ${theme.title}</title>
<link rel="stylesheet" href="${stylesheetUrl}">
<script src="${scriptUrl}" defer></script>
</head>
<body${wide ? html` class="wide"` : null}>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="bar">
${brand}
${
  signedIn
    ? html`<nav aria-label="Main"><ul>${signedIn.nav.map(
        (item) => html`<li><a href="${item.href}"${item.current ? html` aria-current="page"` : null}>${item.label}</a></li>`,
      )}</ul></nav>
${
        signedIn.signOutUrl
          ? html`<form class="inline" method="post" action="${signedIn.signOutUrl}"><input type="hidden" name="csrf" value="${signedIn.csrfToken}"><span class="muted">${signedIn.who}</span> <button class="secondary" type="submit">Sign out</button></form>`
          : html`<span class="muted">${signedIn.who}</span>`
      }`
    : null
}
</div></header>
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>`
}
