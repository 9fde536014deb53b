import { Alert, Box, Code, Group, Loader, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useLogs, type LogLine } from '../../api/util';
import { usePageTitle } from '../../components/PageTitle';

/** pino's levels, most severe first (src/common/logging/app-logger.ts writes them upper case). */
const LEVELS = ['FATAL', 'ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE'];
const LEVEL_OPTIONS = [
  { value: 'ALL', label: 'All levels' },
  { value: 'ERROR', label: 'Errors' },
  { value: 'WARN', label: 'Warnings and errors' },
  { value: 'INFO', label: 'Info and above' },
  { value: 'DEBUG', label: 'Debug and above' },
];
const REFRESH_MS = 5000;
const SHOWN = 500;

const severity = (level: string) => {
  const i = LEVELS.indexOf(level.toUpperCase());
  return i < 0 ? LEVELS.length : i;
};

/**
 * Admin > Tools > Logs: the server's recent lines (`GET /api/util/logs`, newest first, already redacted by the
 * server), filtered by least severity and text, refreshed every few seconds while auto-refresh is on.
 */
export function LogsPage() {
  usePageTitle('Logs');
  const [level, setLevel] = useState('ALL');
  const [text, setText] = useState('');
  const [live, setLive] = useState(true);
  const logs = useLogs(live ? REFRESH_MS : false);
  const lines = useMemo(() => {
    const needle = text.trim().toLowerCase();
    return (logs.data ?? []).filter(
      (l) =>
        (level === 'ALL' || severity(l.level) <= severity(level)) &&
        (!needle || `${l.fqns} ${l.msg} ${l.exception ?? ''}`.toLowerCase().includes(needle)),
    );
  }, [logs.data, level, text]);

  return (
    <Stack gap="md">
      <Title order={1}>Logs</Title>
      <Group align="flex-end" gap="md">
        <Select label="Level" data={LEVEL_OPTIONS} value={level} onChange={(v) => setLevel(v ?? 'ALL')} allowDeselect={false} w={220} />
        <TextInput label="Filter" placeholder="Text in the line" value={text} onChange={(e) => setText(e.currentTarget.value)} w={260} />
        <Switch label="Refresh every 5 seconds" checked={live} onChange={(e) => setLive(e.currentTarget.checked)} mb={8} />
      </Group>
      {logs.isPending ? (
        <Loader aria-label="Loading the logs" />
      ) : logs.error ? (
        <Alert color="red" variant="light" role="alert">
          {logs.error.message}
        </Alert>
      ) : (
        <>
          <Text size="sm" c="dimmed" role="status">
            {lines.length === 0 ? 'No lines match.' : `${Math.min(lines.length, SHOWN)} of ${logs.data.length} lines, newest first.`}
          </Text>
          {/* Focusable, so the lines scroll from the keyboard too. */}
          <Box
            component="ol"
            aria-label="Log lines"
            tabIndex={0}
            style={{ listStyle: 'none', padding: 0, margin: 0, maxHeight: 600, overflow: 'auto' }}
          >
            {lines.slice(0, SHOWN).map((l, i) => (
              <LogRow key={`${l.timestamp}-${i}`} line={l} />
            ))}
          </Box>
        </>
      )}
    </Stack>
  );
}

function LogRow({ line }: { line: LogLine }) {
  const bad = severity(line.level) <= severity('WARN');
  return (
    <li>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', marginBottom: 2 }}>
        {`${line.timestamp} `}
        <Text span fw={bad ? 700 : 400} inherit>
          {line.level.padEnd(5)}
        </Text>
        {` ${line.fqns} ${line.msg}${line.request_id ? ` [${line.request_id}]` : ''}`}
        {line.exception ? `\n${line.exception}` : ''}
      </Code>
    </li>
  );
}
