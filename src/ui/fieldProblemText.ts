import { useLingui } from '@lingui/react/macro';
import type { FieldProblem } from '../../machines/field-limits.ts';

/** The sentence shown beside a field the server refused, in the interface's language. */
export function useFieldProblemText(): (problem: FieldProblem | undefined) => string | undefined {
  const { t } = useLingui();
  return (problem) => {
    if (!problem) return undefined;
    const limit = problem.limit ?? 0;
    switch (problem.problem) {
      case 'required':
        return t`Preencha este campo.`;
      case 'too_long':
        return t`No máximo ${limit} caracteres.`;
      case 'too_short':
        return t`Pelo menos ${limit} caracteres.`;
      case 'format':
        return t`O formato não é válido.`;
      default:
        return t`Este valor não é válido.`;
    }
  };
}
