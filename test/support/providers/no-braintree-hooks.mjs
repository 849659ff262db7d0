// A module resolve hook for a process without the braintree package: resolving it fails as Node
// fails for a package that is not installed.
export async function resolve(specifier, context, next) {
  if (specifier === 'braintree') throw Object.assign(new Error("Cannot find package 'braintree'"), { code: 'ERR_MODULE_NOT_FOUND' })
  return next(specifier, context)
}
