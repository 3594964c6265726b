// Flag parsing for the CLI: `--key value` or `--key=value`; a flag with no value (or
// followed by another flag) is `true`; listed keys repeat; the rest is positional.
export function parseFlags(argv, repeatable = []) {
  const flags = {}
  const positional = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') {
      positional.push(...argv.slice(i + 1))
      break
    }
    if (!arg.startsWith('--')) {
      positional.push(arg)
      continue
    }
    let [key, value] = arg.slice(2).split(/=(.*)/s, 2)
    if (value === undefined) {
      const next = argv[i + 1]
      value = next !== undefined && !next.startsWith('--') ? argv[++i] : true
    }
    if (repeatable.includes(key)) (flags[key] ??= []).push(value)
    else flags[key] = value
  }
  return { flags, positional }
}

/** An integer flag of at least `min`; throws a readable error otherwise. */
export function intFlag(flags, name, min) {
  if (flags[name] === undefined) return undefined
  const n = Number(flags[name])
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}`)
  return n
}
