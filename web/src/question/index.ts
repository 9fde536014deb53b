/** The question component, shared by the public/embed pages and the React SDK. */
export { QuestionView } from './QuestionView';
export type { QuestionOptions } from './QuestionView';
