import { Textarea, type TextareaProps } from '@mantine/core';
import { Warning } from '../../components/Warning';
import type { ReactNode } from 'react';
import { allowsAnySite } from './origins';

/**
 * Authorized origins, space-separated (`https://app.example.com`, `*.example.com`); the form checks each pattern as
 * it is typed (origins.ts). `anySite` is what a bare `*` does for this setting, shown while the list holds one.
 */
export function OriginsField({ value, anySite, ...props }: TextareaProps & { value: string; anySite: ReactNode }) {
  return (
    <>
      <Textarea autosize minRows={2} spellCheck={false} placeholder="https://app.example.com *.example.com" {...props} value={value} />
      {allowsAnySite(value) && <Warning title="* allows every website">{anySite}</Warning>}
    </>
  );
}
