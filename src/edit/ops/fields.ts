import type { EditContext } from '../context.js';
import { checkNamespace } from '../validate.js';

/** `edit set namespace|nameprefix|namesuffix`. */
export interface SetField {
  op: 'setField';
  field: 'namespace' | 'namePrefix' | 'nameSuffix';
  value: string;
}

export function setField(ctx: EditContext, op: SetField): void {
  if (op.field === 'namespace') checkNamespace(op.value);
  ctx.doc.set(op.field, op.value);
}
