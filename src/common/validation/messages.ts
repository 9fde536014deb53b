/** The spec's validation messages, word for word (see "Errors" in the spec). */
export const MSG = {
  positiveInt: 'value must be an integer greater than zero.',
  nonNegativeInt: 'value must be an integer greater than or equal to zero.',
  nonBlank: 'value must be a non-blank string.',
  string: 'value must be a string.',
  jsonString: 'value must be a valid JSON string.',
  boolString: 'value must be a valid boolean string.',
  boolean: 'value must be a boolean.',
  integer: 'value must be an integer.',
  map: 'value must be a map.',
  array: 'value must be an array.',
  email: 'value must be a valid email address.',
  uuid: 'value must be a valid UUID',
  oneOf: (values: readonly string[]) => `value must be one of: ${values.map((v) => `\`${v}\``).join(', ')}.`,
  nonEmptyArray: 'the array cannot be empty',
  param: 'value must be a map with the keys `id` and `type`.',
  passwordTooCommon: 'password is too common.',
} as const;
