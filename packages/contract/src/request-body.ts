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
 * A body schema that also refuses keys starting with `$` or containing `.` at any depth (no operator
 * or field path reaches MongoDB) and strings that are not well-formed Unicode (UTF-8 storage would
 * change a lone surrogate). A preprocess keeps the input type and the documented schema.
 */
export function requestBody<T extends z.ZodTypeAny>(
  schema: T,
): z.ZodEffects<T> {
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
      if (report(parent, 'must be well-formed Unicode (no lone surrogate)'))
        return body;
    } else if (Array.isArray(parent.value)) {
      parent.value.forEach((item: unknown, key) =>
        pending.push({ value: item, key, parent }),
      );
    } else if (typeof parent.value === 'object' && parent.value !== null) {
      for (const [key, item] of Object.entries(parent.value)) {
        const child: Visit = { value: item, key, parent };
        if (key.startsWith('$') || key.includes('.')) {
          if (report(child, 'a key must not start with "$" or contain "."'))
            return body;
        }
        pending.push(child);
      }
    }
  }
  return body;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (
    let at: Visit | undefined = visit;
    at?.key !== undefined;
    at = at.parent
  ) {
    path.unshift(at.key);
  }
  return path;
}
