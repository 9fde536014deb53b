/** The dashboard components, shared by the public/embed pages and the React SDK (which passes its own client). */
export { Dashboard } from './Dashboard';
export type { DashboardOptions } from './Dashboard';
export { DashcardView, queryError } from './DashcardView';
export { CardError, CardFrame, Spinner } from './CardFrame';
export { DownloadMenu } from './DownloadMenu';
export { Markdown, TextCard } from './TextCard';
export { fileName, toCsv, toJson } from './download';
