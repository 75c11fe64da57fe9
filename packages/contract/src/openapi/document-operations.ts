const HTTP_METHOD = /^(get|put|post|delete|options|head|patch|trace)$/;

export interface DocumentOperation<Operation = unknown> {
  path: string;
  /** Lower case, as the document has it. */
  method: string;
  operation: Operation;
}

/** Every operation of an OpenAPI document, in the document's order. */
export function documentOperations<PathItem extends object>(document: {
  paths?: Record<string, PathItem>;
}): DocumentOperation<PathItem[keyof PathItem]>[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    (Object.entries(item) as [string, PathItem[keyof PathItem]][])
      .filter(([method]) => HTTP_METHOD.test(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}
