import { z } from 'zod';

const HidesTryIt = z.object({ 'x-hideTryItPanel': z.literal(true) });

/**
 * A style rule per operation whose entry says `x-hideTryItPanel: true`: Scalar 1.76 can hide its
 * "Test Request" button only everywhere at once. It renders each operation as a `<section>` whose
 * id ends in `/<METHOD><path>`; the rule hides the button there, and the operation's entry in the
 * sidebar of the request client (the modal that button opens), so no other operation leads to it.
 */
export function hiddenTryItCss({
  paths,
}: {
  paths: Record<string, object>;
}): string {
  return Object.entries(paths)
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => HidesTryIt.safeParse(operation).success)
        .map(([method]) => JSON.stringify(`/${method.toUpperCase()}${path}`)),
    )
    .map(
      (idEnd) =>
        `section[id$=${idEnd}] .show-api-client-button, .scalar-client li[data-sidebar-id$=${idEnd}] { display: none; }`,
    )
    .join('\n');
}
