// README.md and docs/ describe the product as it is: no issue numbers, no narration of earlier
// work ("this session", "was 8 MiB", "13.1 → 9.7 ms"), and the README within its length
// budget. History belongs in CHANGELOG.md. Run by `npm test` (__test__/docs.spec.ts);
// standalone it prints each finding and exits 1 when there is one.
//
//   node scripts/check-docs.mjs
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

export const README_MAX_LINES = 250

/** Each pattern with why it is not product documentation. */
export const NARRATION = [
  [/\bissues?\s*#?\d+/i, 'cites an issue number'],
  [/(?<![\w/.-])#\d+\b/, 'cites an issue number'],
  [/\b(?:see|per|from|in) (?:the )?issue(?: notes)?\b/i, 'points at an issue'],
  [/\b(?:this|previous|earlier|last|today'?s|that) (?:work )?sessions?(?:'s)?\b(?!\.(?:run|dispose)\b)/i, 'narrates a work session'],
  [/\b(?:previous|earlier|last|other) (?:full |bench(?:mark)? )?runs? (?:today|made|since|before)\b/i, 'narrates earlier benchmark runs'],
  [/\b(?:in|from|across) (?:the )?(?:previous|earlier|last|other) (?:full |bench(?:mark)? )runs?\b/i, 'narrates earlier benchmark runs'],
  [/\btoday\b/i, 'dates the text'],
  [/\bbefore\s*(?:→|->)/i, 'a before → after figure'],
  [/\d[\d.,]*\s*(?:[a-zµ%]+\s*)?(?:→|->)\s*~?\d/i, 'a before → after figure'],
  [/\(?\bwas\s+~?\d/i, 'an earlier figure ("was N")'],
  [/\b(?:used to|no longer|anymore|any more)\b/i, 'narrates a change'],
  [/\b(?:before|after) (?:this|the|that|these) (?:change|fix|session|commit)s?\b/i, 'narrates a change'],
  [/\bnow (?:is|are|takes|costs|wakes|keeps|starts|runs)\b/i, 'narrates a change'],
  [/\bnow ~?\d/i, 'narrates a change'],
]

/** The findings in one text: `{ line, text, why }` for each line a pattern matches. */
export function narration(text) {
  const found = []
  const lines = text.split('\n')
  let fenced = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    // Code samples may hold arrows and numbers that are no history.
    if (fenced) continue
    for (const [pattern, why] of NARRATION) {
      if (pattern.test(line)) {
        found.push({ line: i + 1, text: line.trim(), why })
        break
      }
    }
  }
  return found
}

/** Every finding in README.md and docs/*.md under `root`, and the README's length. */
export function checkDocs(root) {
  const files = [join(root, 'README.md')]
  for (const name of readdirSync(join(root, 'docs')).sort()) if (name.endsWith('.md')) files.push(join(root, 'docs', name))
  const problems = []
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const f of narration(text)) problems.push(`${relative(root, file)}:${f.line}: ${f.why}: ${f.text}`)
  }
  const readmeLines = readFileSync(files[0], 'utf8').replace(/\n$/, '').split('\n').length
  if (readmeLines > README_MAX_LINES) problems.push(`README.md: ${readmeLines} lines, more than ${README_MAX_LINES}`)
  return problems
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = checkDocs(join(dirname(fileURLToPath(import.meta.url)), '..'))
  for (const p of problems) console.log(p)
  console.log(problems.length === 0 ? 'check-docs: ok' : `check-docs: ${problems.length} problems`)
  process.exit(problems.length === 0 ? 0 : 1)
}
