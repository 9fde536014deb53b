import { useMemo } from 'react';
import { embedDashboardClient, embedQuestionClient } from '../api/embed-client';
import { publicDashboardClient, publicQuestionClient } from '../api/public-client';
import { Dashboard } from '../dashboard/Dashboard';
import type { PageOptions } from '../hash-options';
import { QuestionView } from '../question/QuestionView';

export interface PageProps {
  /** The link's uuid or the embed token: used in API paths only. */
  id: string;
  options: PageOptions;
  defaults: Record<string, string[]>;
  onLoadError: (e: Error) => void;
}

export function PublicQuestion(props: PageProps) {
  const client = useMemo(() => publicQuestionClient(props.id), [props.id]);
  return <QuestionView client={client} options={props.options} defaults={props.defaults} onLoadError={props.onLoadError} />;
}

export function PublicDashboard(props: PageProps) {
  const client = useMemo(() => publicDashboardClient(props.id), [props.id]);
  return <Dashboard client={client} options={props.options} defaults={props.defaults} onLoadError={props.onLoadError} />;
}

export function EmbedQuestion(props: PageProps) {
  const client = useMemo(() => embedQuestionClient(props.id), [props.id]);
  return <QuestionView client={client} options={props.options} defaults={props.defaults} onLoadError={props.onLoadError} />;
}

export function EmbedDashboard(props: PageProps) {
  const client = useMemo(() => embedDashboardClient(props.id), [props.id]);
  return <Dashboard client={client} options={props.options} defaults={props.defaults} onLoadError={props.onLoadError} />;
}
