import type { ComponentProps } from 'react';

/** A form whose submitting (Enter in a field, its submit button) runs `onSubmit` in the page instead of loading one. */
export function SubmitForm({
  onSubmit,
  ...form
}: Omit<ComponentProps<'form'>, 'onSubmit'> & { onSubmit: () => void }) {
  return (
    <form
      {...form}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    />
  );
}
