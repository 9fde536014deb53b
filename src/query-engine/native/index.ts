export { parseNativeQuery, parseTagName, referencedTags, type Segment, type TagRef, type TagReference } from './parse';
export { substituteNative, validateTemplateTags, type NativeContext, type SubstitutedQuery } from './substitute';
