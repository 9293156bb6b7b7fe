/*
 * Copyright (c) 2024 The tsapp authors.
 * Licensed under MIT. See the "License" section of README.md for details.
 */

export function formatName(first: string, last?: string): string {
  const parts = [first, last].filter((p): p is string => Boolean(p)).map((p) => capitalize(p));
  return parts.join(' ');
}

/** Uppercase the first letter of a word and lowercase the rest. */
export function capitalize(word: string): string {
  if (word.length === 0) {
    return word;
  }
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** Convert text into a URL-safe, dash separated slug. */
export const slugify = (s: string): string =>
  s
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

// Shorten text to at most `max` characters, adding an ellipsis when cut.
export const truncate = (text: string, max = 40): string =>
  text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;

/** A tree of tags where leaves are `null`. */
export interface TagTree {
  [name: string]: TagTree | null;
}

/**
 * Flatten a nested tag tree into dotted paths such as `lang.ts.strict`.
 * Each subtree is flattened recursively and prefixed with its parent.
 */
export function flattenTags(tree: TagTree, prefix = ''): string[] {
  const result: string[] = [];
  for (const [name, child] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${name}` : name;
    result.push(path);
    if (child) {
      result.push(...flattenTags(child, path));
    }
  }
  return result;
}

/** Format a date as `YYYY-MM-DD` in UTC. */
export default function formatDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}
