import { Button, CopyButton, Group, PasswordInput, Stack, type PasswordInputProps } from '@mantine/core';
import { useState } from 'react';
import { isMaskedSecret } from '../../api/setting';
import { randomToken } from '../../api/util';
import { notifyError } from '../../notify';

const STORED =
  'A key is set. The server shows only its last two characters, never the key again: generate or paste a new one to replace it.';

/**
 * A secret setting (the JWT shared secret): masked until revealed with its Show button; "Generate key" puts a new
 * random key (`GET /api/util/random_token`) in the field, shown, with a Copy button, to give the other side before
 * saving. A stored key comes back masked by the API, so it is never revealed here: it can only be replaced.
 */
export function SecretField({
  label,
  value,
  onChange,
  description,
  disabled,
  ...props
}: Omit<PasswordInputProps, 'value' | 'onChange'> & { label: string; value: string; onChange(value: string): void }) {
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);
  const masked = isMaskedSecret(value);

  const generate = async () => {
    setBusy(true);
    try {
      onChange(await randomToken());
      setVisible(true);
    } catch (e) {
      notifyError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={6}>
      <PasswordInput
        {...props}
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        disabled={disabled}
        visible={visible}
        onVisibilityChange={setVisible}
        visibilityToggleButtonProps={{ 'aria-label': visible ? `Hide ${label}` : `Show ${label}`, tabIndex: 0 }}
        description={masked ? STORED : description}
        autoComplete="off"
        spellCheck={false}
        // A masked value is no key to edit: typing replaces it.
        onFocus={(e) => masked && e.currentTarget.select()}
      />
      <Group gap="xs">
        <Button variant="default" size="xs" onClick={generate} loading={busy} disabled={disabled}>
          Generate key
        </Button>
        {value && !masked && (
          <CopyButton value={value} timeout={2000}>
            {({ copied, copy }) => (
              <Button variant="default" size="xs" onClick={copy} color={copied ? 'green' : undefined}>
                {copied ? 'Copied' : `Copy ${label.toLowerCase()}`}
              </Button>
            )}
          </CopyButton>
        )}
      </Group>
    </Stack>
  );
}
