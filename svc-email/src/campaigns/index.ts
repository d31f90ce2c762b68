export { campaignModel, toCampaign, type CampaignDoc } from './model';
export { CampaignsService } from './service';
export { campaignsRouter } from './routes';
