/** A form's fields after its `field.change` event: the value typed replaces that field's, the others stay. */
export function withField<TFields>(
  fields: TFields,
  change: { field: keyof TFields; value: string },
): TFields {
  return { ...fields, [change.field]: change.value };
}
