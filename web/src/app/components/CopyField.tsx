import { ActionIcon, CopyButton, TextInput, Tooltip, type TextInputProps } from '@mantine/core';

/**
 * A value to copy somewhere else (a URL to give an identity provider, a key shown once): read-only, selectable, and a
 * copy button named after the field ("Copy ACS URL").
 */
export function CopyField({ label, value, ...props }: Omit<TextInputProps, 'value' | 'onChange'> & { label: string; value: string }) {
  return (
    <TextInput
      {...props}
      label={label}
      value={value}
      readOnly
      onFocus={(e) => e.currentTarget.select()}
      rightSectionWidth={72}
      rightSection={<CopyAction value={value} name={label} />}
    />
  );
}

/** A button that copies `value`, and says "Copied" for a moment after. */
export function CopyAction({ value, name }: { value: string; name: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
          <ActionIcon
            variant="subtle"
            color={copied ? 'green' : 'gray'}
            onClick={copy}
            aria-label={copied ? `${name} copied` : `Copy ${name}`}
            w={56}
            size="md"
            disabled={!value}
          >
            {copied ? '✓' : 'Copy'}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
