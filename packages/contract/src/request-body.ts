import { z } from './zod.js';

/** Enough to explain why a body is rejected, without a reply (or memory) growing with the body. */
const MAX_ISSUES = 10;

/** A UTF-16 surrogate without its pair: with the `u` flag, a paired one reads as one code point. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** A value met in the walk; its path is rebuilt from the parents only when it is reported. */
interface Visit {
  value: unknown;
  key?: string | number;
  parent?: Visit;
}

/**
 * A request body schema that also rejects keys starting with `$` or containing `.` at any depth,
 * arrays included, so no operator or field path (`$where`, `a.b`) can reach a Mongo query or
 * document, not even in a property the schema would drop. Unknown keys are dropped as usual.
 *
 * It rejects as well any string that is not well-formed Unicode: JSON may escape a lone surrogate
 * (`"\ud800"`), but the database stores UTF-8, which cannot hold one, so the text would be stored
 * changed (as U+FFFD) while the answer showed it as sent.
 *
 * A preprocess effect keeps the input type of the schema for typed clients and lets the document
 * generator show the schema inside.
 */
export function requestBody<T extends z.ZodTypeAny>(schema: T): z.ZodEffects<T> {
  return new z.ZodEffects({
    schema,
    typeName: z.ZodFirstPartyTypeKind.ZodEffects,
    effect: { type: 'preprocess', transform: rejectUnsafeInput },
  });
}

function rejectUnsafeInput(body: unknown, ctx: z.RefinementCtx): unknown {
  // Walked with a stack, not recursion: a deeply nested body must not overflow the call stack.
  const pending: Visit[] = [{ value: body }];
  let issues = 0;
  const report = (at: Visit, message: string) => {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: pathOf(at), message });
    return ++issues === MAX_ISSUES;
  };
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const parent = visit;
    if (typeof parent.value === 'string' && LONE_SURROGATE.test(parent.value)) {
      if (report(parent, 'must be well-formed Unicode (no lone surrogate)')) return body;
    } else if (Array.isArray(parent.value)) {
      parent.value.forEach((item: unknown, key) => pending.push({ value: item, key, parent }));
    } else if (typeof parent.value === 'object' && parent.value !== null) {
      for (const [key, item] of Object.entries(parent.value)) {
        const child: Visit = { value: item, key, parent };
        if (key.startsWith('$') || key.includes('.')) {
          if (report(child, 'a key must not start with "$" or contain "."')) return body;
        }
        pending.push(child);
      }
    }
  }
  return body;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) {
    path.unshift(at.key);
  }
  return path;
}
