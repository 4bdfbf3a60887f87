import { folioProject } from '../../vitest.shared.js';

export default folioProject('service');
