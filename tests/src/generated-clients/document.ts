import ts from '@typescript/typescript6';

interface Schema {
  type?: string;
  items?: Schema;
  example?: unknown;
}

interface Operation {
  operationId?: string;
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** The resources each generator must name as the document does. */
export const resources = ['Pet', 'Category', 'Order', 'InventoryItem'];

const refersToResource = (schema: Schema | undefined) =>
  resources.some((name) =>
    JSON.stringify(schema ?? {}).includes(`"#/components/schemas/${name}"`),
  );

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * The names openapi-python-client gives a body it has to model apart from its component: an
 * operation's 200/201 body (`GetPetResponse200`, `ListInventoryResponse200Item`) or the items of a
 * named array (`PetsItem`), when one of them carries a resource.
 */
export function pythonWrapperNames(document: OpenApiDocument): string[] {
  const names: string[] = [];
  for (const operation of Object.values(document.paths).flatMap((item) =>
    Object.values(item),
  )) {
    for (const status of ['200', '201']) {
      const schema =
        operation.responses?.[status]?.content?.['application/json']?.schema;
      if (operation.operationId && refersToResource(schema)) {
        const name = `${pascal(operation.operationId)}Response${status}`;
        names.push(name, `${name}Item`);
      }
    }
  }
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    if (schema.type === 'array' && refersToResource(schema.items))
      names.push(`${name}Item`);
  }
  return names;
}

/**
 * The text of the type at a dotted path of property names in a declaration file's interfaces,
 * `operations.getPet.responses.200`; undefined when there is none.
 */
export function typeAt(
  source: ts.SourceFile,
  path: string,
): string | undefined {
  const [name, ...keys] = path.split('.');
  const declaration = source.statements.find(
    (node): node is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(node) && node.name.text === name,
  );
  let members = declaration?.members;
  let type: ts.TypeNode | undefined;
  for (const key of keys) {
    const member = members?.find(
      (node): node is ts.PropertySignature =>
        ts.isPropertySignature(node) &&
        (ts.isIdentifier(node.name) ||
          ts.isStringLiteral(node.name) ||
          ts.isNumericLiteral(node.name)) &&
        node.name.text === key,
    );
    type = member?.type;
    members = type && ts.isTypeLiteralNode(type) ? type.members : undefined;
  }
  return type?.getText(source);
}
