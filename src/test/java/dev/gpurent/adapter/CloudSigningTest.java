package dev.gpurent.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The three signatures against the worked examples of each vendor's own API documentation, to the
 * byte. These examples are documentation, not recorded payloads: their keys are the documents'
 * sample keys (Tencent masks part of its sample key with asterisks, and signs with the masked key).
 */
class CloudSigningTest {

  /**
   * Tencent Cloud, 签名方法 v3 (https://cloud.tencent.com/document/api/213/30654): DescribeInstances
   * in ap-guangzhou at 1551113065 (2019-02-25), the document's payload, SecretId
   * AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******, SecretKey Gu5t9xGARNpq86cd98joQYCN3*******.
   */
  @Test
  void signs_the_tencent_tc3_documentation_example_byte_for_byte() {
    String payload = "{\"Limit\": 1, \"Filters\": [{\"Values\": [\"\\u672a\\u547d\\u540d\"], \"Name\": \"instance-name\"}]}";
    CloudSigning.Tc3 s = CloudSigning.tc3("AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******", "Gu5t9xGARNpq86cd98joQYCN3*******", "cvm",
        "cvm.tencentcloudapi.com", "application/json; charset=utf-8", payload, 1551113065L);
    assertEquals("POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\ncontent-type;host\n"
        + "35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064", s.canonicalRequest());
    assertEquals("TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n"
        + "5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031", s.stringToSign());
    assertEquals("2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c", s.signature());
    assertEquals("TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, "
        + "SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c",
        s.authorization());
  }

  /**
   * Alibaba Cloud, V3版本请求体&签名机制 (https://help.aliyun.com/zh/sdk/product-overview/v3-request-structure-and-signature),
   * its fixed-parameter example: POST RunInstances 2014-05-26 to ecs.cn-shanghai.aliyuncs.com with
   * ImageId and RegionId in the query, no body, x-acs-date 2023-10-26T10:22:32Z, nonce
   * 3156853299f313e23d1673dc12e1703d, AccessKey YourAccessKeyId / YourAccessKeySecret.
   */
  @Test
  void signs_the_alibaba_acs3_documentation_example_byte_for_byte() {
    Map<String, String> query = new LinkedHashMap<>();
    query.put("RegionId", "cn-shanghai");
    query.put("ImageId", "win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd");
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("host", "ecs.cn-shanghai.aliyuncs.com");
    headers.put("x-acs-action", "RunInstances");
    headers.put("x-acs-version", "2014-05-26");
    headers.put("x-acs-date", "2023-10-26T10:22:32Z");
    headers.put("x-acs-signature-nonce", "3156853299f313e23d1673dc12e1703d");
    headers.put("x-acs-content-sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CloudSigning.Acs3 s = CloudSigning.acs3("YourAccessKeyId", "YourAccessKeySecret", "POST", query, headers, "");
    assertEquals("ImageId=win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd&RegionId=cn-shanghai", s.canonicalQuery());
    assertEquals("POST\n/\nImageId=win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd&RegionId=cn-shanghai\n"
        + "host:ecs.cn-shanghai.aliyuncs.com\nx-acs-action:RunInstances\n"
        + "x-acs-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
        + "x-acs-date:2023-10-26T10:22:32Z\nx-acs-signature-nonce:3156853299f313e23d1673dc12e1703d\nx-acs-version:2014-05-26\n\n"
        + "host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version\n"
        + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", s.canonicalRequest());
    assertEquals("ACS3-HMAC-SHA256\n7ea06492da5221eba5297e897ce16e55f964061054b7695beedaac1145b1e259", s.stringToSign());
    assertEquals("06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0", s.signature());
    assertEquals("ACS3-HMAC-SHA256 Credential=YourAccessKeyId,SignedHeaders=host;x-acs-action;x-acs-content-sha256;x-acs-date;"
        + "x-acs-signature-nonce;x-acs-version,Signature=06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0",
        s.authorization());
  }

  /**
   * UCloud, 签名算法 (https://docs.ucloud.cn/api/summary/signature, UCloudDoc-Team/api summary/signature.md):
   * DescribeUHostInstance in cn-bj2, Limit 10, PublicKey ucloudsomeone@example.com1296235120854146120,
   * PrivateKey 46f09bb9fab4f12dfc160dae12273d5332b5debe.
   */
  @Test
  void signs_the_ucloud_documentation_example_byte_for_byte() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("Action", "DescribeUHostInstance");
    params.put("Region", "cn-bj2");
    params.put("Limit", "10");
    params.put("PublicKey", "ucloudsomeone@example.com1296235120854146120");
    assertEquals("cba5cf5ec4d4233d206b1b54951e3787350a642f", CloudSigning.ucloud(params, "46f09bb9fab4f12dfc160dae12273d5332b5debe"));
  }

  @Test
  void encodes_query_values_as_rfc_3986_says() {
    assertEquals("AZaz09-_.~", CloudSigning.rfc3986("AZaz09-_.~"));
    assertEquals("a%20b%2A%2B%2F%3D%26~%E4%B8%AD", CloudSigning.rfc3986("a b*+/=&~中"));
  }
}
