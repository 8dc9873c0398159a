import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { channelIdField, channelIdFrom } from '../../channel/fields';
import { PATHS } from '../../constants';
import { templateIdField, templateIdFrom } from '../../template/fields';
import { declarativeRead } from '../../transport/readAnswers';

export const getDescription: INodeProperties[] = [channelIdField('get'), templateIdField('get')];

export const getRouting = declarativeRead({
	path: PATHS.templateDetail,
	expect: 'template',
	query() {
		const itemIndex = this.getItemIndex();
		return {
			platform_id: channelIdFrom(this.getNodeParameter('channelId', undefined), this.getNode(), itemIndex),
			template_id: templateIdFrom(this.getNodeParameter('templateId', undefined), this.getNode(), itemIndex),
		};
	},
	output: (body) => [body as IDataObject],
});
